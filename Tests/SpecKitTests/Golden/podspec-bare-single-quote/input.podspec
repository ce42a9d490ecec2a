Pod::Spec.new do |s|
  s.name         = 'Payments'
  s.version      = '2.3.0'
  s.summary      = 'Payments for the app # not a comment'
  s.source       = { :git => 'https://git.example.com/ios/Payments.git', :tag => s.version.to_s }

  s.dependency 'Core'
end
