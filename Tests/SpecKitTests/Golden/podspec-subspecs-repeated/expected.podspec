Pod::Spec.new do |s|
  s.name = 'Payments'
  s.default_subspecs = 'Base'

  s.subspec 'Base' do |ss|
    ss.source_files = 'Sources/Base/**/*.swift'
    ss.dependency 'Core', '1.0.1'
  end

  s.subspec 'UI' do |ui|
    ui.dependency 'Payments/Base'
    ui.dependency 'Core', '1.0.1'
  end

  s.subspec('Extras') { |x| x.dependency 'Core', '1.0.1' }
end
