Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Core', '~> 1.0'

  s.test_spec 'Tests' do |test_spec|
    test_spec.source_files = 'Tests/**/*.swift'
    test_spec.dependency 'Quick', '~> 7.0'
    test_spec.dependency 'Nimble'
  end

  s.app_spec 'Demo' do |app|
    app.dependency 'Core'
  end
end
