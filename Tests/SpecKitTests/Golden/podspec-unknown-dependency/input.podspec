Pod::Spec.new do |s|
  s.name = 'Payments'
  s.dependency 'Alamofire', '~> 5.0'
  s.dependency 'Core', '~> 1.0'
  s.dependency 'CoreData+Extras'
end
